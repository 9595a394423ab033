// Unit tests of js/clock.js (no browser): the clock text with tenths under 10 s, and the time
// controls of the create dialog as the API takes them (docs/api.md: initial_ms, increment_ms).
import { test } from "node:test";
import assert from "node:assert/strict";
import { formatClock, timeControl, timeControlText } from "../../www/js/clock.js";

test("minutes and seconds from 10 s up, tenths below", () => {
  assert.equal(formatClock(300000), "5:00");
  assert.equal(formatClock(61000), "1:01");
  // a second that has started counts as a whole one above 10 s
  assert.equal(formatClock(10001), "0:11");
  assert.equal(formatClock(10000), "0:10");
  assert.equal(formatClock(9999), "0:09.9");
  assert.equal(formatClock(5050), "0:05.0");
  assert.equal(formatClock(99), "0:00.0");
  assert.equal(formatClock(-40), "0:00.0");
});

test("time controls: presets, custom minutes + seconds, refusals", () => {
  assert.equal(timeControl("", "5", "3"), null);
  assert.deepEqual(timeControl("300+3"), { initial_ms: 300000, increment_ms: 3000 });
  assert.deepEqual(timeControl("custom", "0.25", "0"), { initial_ms: 15000, increment_ms: 0 });
  assert.deepEqual(timeControl("custom", "90", "30"), { initial_ms: 5400000, increment_ms: 30000 });
  assert.throws(() => timeControl("custom", "0", "2"), /base time/);
  assert.throws(() => timeControl("custom", "abc", "2"), /base time/);
  assert.throws(() => timeControl("custom", "1441", "2"), /base time/);
  assert.throws(() => timeControl("custom", "5", "-1"), /increment/);
  assert.equal(timeControlText({ initial_ms: 180000, increment_ms: 2000 }), "3+2");
  assert.equal(timeControlText({ initial_ms: 15000, increment_ms: 0 }), "15s+0");
  assert.equal(timeControlText({ initial_ms: 90000, increment_ms: 1000 }), "1.5+1");
  assert.equal(timeControlText(null), "untimed");
});
