// Standalone development entry (the shell loads ./app through module federation instead).
import('./standalone');
