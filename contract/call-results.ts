// Moved to contract/run/call-results.ts; this re-export goes once every import names the new place.
export * from './run/call-results.js';
