// Async boundary so module federation can negotiate shared singletons first.
import('./bootstrap');
