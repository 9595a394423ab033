// Clock display: minutes and seconds, and tenths of a second under 10 s (as in lidraughts).

/** Format `ms` (milliseconds left, negative counts as 0): `4:59`, `0:10`, under 10 s `0:09.4`. */
export function formatClock(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) {
    // tenths, rounded down so that 0.0 shows only once the time is really out
    const tenths = Math.floor(ms / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * The clock presets of the create dialogs ("seconds+seconds": the lobby's choices), with their
 * names; `custom` asks for minutes and seconds (`timeControl`).
 */
export const CLOCK_PRESETS = [
  ["60+1", "1 min + 1 s"],
  ["180+2", "3 min + 2 s"],
  ["300+3", "5 min + 3 s"],
  ["600+5", "10 min + 5 s"],
  ["1800+0", "30 min"],
  ["custom", "Custom…"],
];

/**
 * A time control from the create dialog: a preset `"300+3"` (seconds + seconds), `"custom"` with
 * `baseMin` minutes and `incSec` seconds, or `""` for none. Returns the API's
 * `{initial_ms, increment_ms}` or null; throws an Error naming the bad field.
 */
export function timeControl(preset, baseMin, incSec) {
  if (!preset) return null;
  let base;
  let inc;
  if (preset === "custom") {
    base = Number(baseMin) * 60;
    inc = Number(incSec);
    if (!Number.isFinite(base) || base <= 0 || base > 24 * 3600) {
      throw new Error(`base time must be more than 0 and at most 1440 minutes, not '${baseMin}'`);
    }
    if (!Number.isFinite(inc) || inc < 0 || inc > 3600) {
      throw new Error(`increment must be 0..3600 seconds, not '${incSec}'`);
    }
  } else {
    [base, inc] = preset.split("+").map(Number);
  }
  return { initial_ms: Math.round(base * 1000), increment_ms: Math.round((inc || 0) * 1000) };
}

/** A time control as people write it: `5+3`, `1.5+0` (minutes + seconds), `15s+0`, or `untimed`. */
export function timeControlText(tc) {
  if (!tc) return "untimed";
  if (tc.initial_ms < 60000) return `${Math.round(tc.initial_ms / 1000)}s+${Math.round(tc.increment_ms / 1000)}`;
  const min = tc.initial_ms / 60000;
  return `${Number.isInteger(min) ? min : min.toFixed(1)}+${Math.round(tc.increment_ms / 1000)}`;
}

/** The days per move a correspondence challenge may give (docs/api.md "Correspondence games"). */
export const CORRESPONDENCE_DAYS = [1, 2, 3, 5, 7, 14];

/** `d` days as words: "1 day", "3 days". */
export function daysText(d) {
  return d === 1 ? "1 day" : `${d} days`;
}

/** A time left (ms) in words, to the minute: "2 d 3 h", "5 h 12 min", "12 min", "under a minute". */
export function timeLeftText(ms) {
  const min = Math.floor(Math.max(0, ms) / 60000);
  if (min < 1) return "under a minute";
  const d = Math.floor(min / 1440);
  const h = Math.floor((min % 1440) / 60);
  if (d > 0) return h ? `${d} d ${h} h` : `${d} d`;
  if (h > 0) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  return `${min} min`;
}

/** A deadline (ms since the epoch) as a short local date and time: "Tue 8 Dec, 18:40". */
export function deadlineWhen(ms) {
  return new Date(ms).toLocaleString([], { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}
