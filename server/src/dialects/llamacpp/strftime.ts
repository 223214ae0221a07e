// C strftime in the "C" locale, which llama.cpp's `strftime_now` calls on std::localtime of the render
// time (value.cpp, global_builtins). The buffer is 100 bytes and a zero return is an error, so an
// empty result or one of 100 bytes or more raises "strftime_now: failed to format time". The pinned
// clock has no time zone; %Z and %z print UTC's ("UTC", "+0000"), which is what the engine printed on
// the machine the corpus was made on.
import type { WallClock } from "../../interpreter/kit";

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

const pad = (n: number, width: number, fill = "0") => String(n).padStart(width, fill);

/** Formats `t` like strftime(buf, 100, format, tm); null where strftime would return 0. */
export function strftime(format: string, t: WallClock): string | null {
  const date = new Date(Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second));
  const wday = date.getUTCDay();
  const yday = Math.round((Date.UTC(t.year, t.month - 1, t.day) - Date.UTC(t.year, 0, 1)) / 86400000);
  const hour12 = t.hour % 12 === 0 ? 12 : t.hour % 12;
  const fields: Record<string, () => string> = {
    a: () => DAYS[wday].slice(0, 3),
    A: () => DAYS[wday],
    b: () => MONTHS[t.month - 1].slice(0, 3),
    h: () => MONTHS[t.month - 1].slice(0, 3),
    B: () => MONTHS[t.month - 1],
    c: () => `${fields.a()} ${fields.b()} ${pad(t.day, 2, " ")} ${fields.T()} ${t.year}`,
    C: () => pad(Math.floor(t.year / 100), 2),
    d: () => pad(t.day, 2),
    D: () => `${fields.m()}/${fields.d()}/${fields.y()}`,
    e: () => pad(t.day, 2, " "),
    F: () => `${t.year}-${fields.m()}-${fields.d()}`,
    H: () => pad(t.hour, 2),
    I: () => pad(hour12, 2),
    j: () => pad(yday + 1, 3),
    k: () => pad(t.hour, 2, " "),
    l: () => pad(hour12, 2, " "),
    m: () => pad(t.month, 2),
    M: () => pad(t.minute, 2),
    n: () => "\n",
    p: () => (t.hour < 12 ? "AM" : "PM"),
    P: () => (t.hour < 12 ? "am" : "pm"),
    r: () => `${fields.I()}:${fields.M()}:${fields.S()} ${fields.p()}`,
    R: () => `${fields.H()}:${fields.M()}`,
    s: () => String(Math.floor(date.getTime() / 1000)),
    S: () => pad(t.second, 2),
    t: () => "\t",
    T: () => `${fields.H()}:${fields.M()}:${fields.S()}`,
    u: () => String(wday === 0 ? 7 : wday),
    U: () => pad(Math.floor((yday + 7 - wday) / 7), 2),
    w: () => String(wday),
    W: () => pad(Math.floor((yday + 7 - ((wday + 6) % 7)) / 7), 2),
    x: () => fields.D(),
    X: () => fields.T(),
    y: () => pad(t.year % 100, 2),
    Y: () => String(t.year),
    z: () => "+0000",
    Z: () => "UTC",
    "%": () => "%",
  };
  const out = format.replace(/%(.)/gs, (m, c: string) => (Object.hasOwn(fields, c) ? fields[c]() : m));
  const bytes = new TextEncoder().encode(out).length;
  return bytes === 0 || bytes >= 100 ? null : out;
}
