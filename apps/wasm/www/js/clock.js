// The clock helpers live in shared/clock.js; this module keeps their old address (the unit tests
// of apps/wasm/e2e/tests/clock.test.js import them from here).
export * from "./shared/clock.js";
