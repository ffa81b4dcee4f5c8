// What TanStack Query's add-on packages (the persister) get for '@tanstack/query-core': the
// query core inside the shared react-query singleton, instead of a second bundled copy of it
// (with its own notifyManager and timers). react-query re-exports all of query-core.
export * from '@tanstack/react-query';
