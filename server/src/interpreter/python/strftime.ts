// datetime.strftime in the C locale (glibc), for strftime_now: the directives chat templates use
// (%Y-%m-%d, %d %b %Y, %B %d, %Y …) and the rest of the common set, with glibc's `-`, `_`, `0`
// padding flags. The time is naive (no zone), as datetime.now() is: %Z and %z are empty.
import type { WallClock } from "../dialect";

const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

function weekday(t: WallClock): number {
  // 0 = Monday, as Python's weekday().
  return (new Date(Date.UTC(t.year, t.month - 1, t.day)).getUTCDay() + 6) % 7;
}

function yearDay(t: WallClock): number {
  return Math.round((Date.UTC(t.year, t.month - 1, t.day) - Date.UTC(t.year, 0, 1)) / 86_400_000) + 1;
}

function isoWeek(t: WallClock): { year: number; week: number } {
  // The ISO week is the week of its Thursday; week 1 holds January 4th.
  const thursday = new Date(Date.UTC(t.year, t.month - 1, t.day + 3 - weekday(t)));
  const year = thursday.getUTCFullYear();
  const jan4 = new Date(Date.UTC(year, 0, 4));
  const week1Monday = Date.UTC(year, 0, 4 - ((jan4.getUTCDay() + 6) % 7));
  return { year, week: 1 + Math.floor((thursday.getTime() - week1Monday) / (7 * 86_400_000)) };
}

export function strftime(fmt: string, t: WallClock): string {
  return fmt.replace(/%([-_0^#]?)([a-zA-Z%+])/g, (whole, flag: string, c: string) => {
    const num = (n: number, width: number, padChar = "0"): string => {
      if (flag === "-") return String(n);
      const p = flag === "_" ? " " : flag === "0" ? "0" : padChar;
      return String(n).padStart(width, p);
    };
    const up = (s: string) => (flag === "^" ? s.toUpperCase() : s);
    const wd = weekday(t);
    const hour12 = t.hour % 12 === 0 ? 12 : t.hour % 12;
    switch (c) {
      case "a":
        return up(DAYS[wd].slice(0, 3));
      case "A":
        return up(DAYS[wd]);
      case "b":
      case "h":
        return up(MONTHS[t.month - 1].slice(0, 3));
      case "B":
        return up(MONTHS[t.month - 1]);
      case "c":
        return `${DAYS[wd].slice(0, 3)} ${MONTHS[t.month - 1].slice(0, 3)} ${String(t.day).padStart(2, " ")} ${strftime("%H:%M:%S", t)} ${t.year}`;
      case "C":
        return num(Math.floor(t.year / 100), 2);
      case "d":
        return num(t.day, 2);
      case "D":
        return strftime("%m/%d/%y", t);
      case "e":
        return num(t.day, 2, " ");
      case "f":
        return num(t.microsecond, 6);
      case "F":
        return strftime("%Y-%m-%d", t);
      case "G":
        return String(isoWeek(t).year);
      case "g":
        return num(isoWeek(t).year % 100, 2);
      case "H":
        return num(t.hour, 2);
      case "I":
        return num(hour12, 2);
      case "j":
        return num(yearDay(t), 3);
      case "k":
        return num(t.hour, 2, " ");
      case "l":
        return num(hour12, 2, " ");
      case "m":
        return num(t.month, 2);
      case "M":
        return num(t.minute, 2);
      case "n":
        return "\n";
      case "p":
        return t.hour < 12 ? "AM" : "PM";
      case "P":
        return t.hour < 12 ? "am" : "pm";
      case "r":
        return strftime("%I:%M:%S %p", t);
      case "R":
        return strftime("%H:%M", t);
      case "S":
        return num(t.second, 2);
      case "t":
        return "\t";
      case "T":
        return strftime("%H:%M:%S", t);
      case "u":
        return String(wd + 1);
      case "U":
        return num(Math.floor((yearDay(t) + 6 - ((wd + 1) % 7)) / 7), 2);
      case "V":
        return num(isoWeek(t).week, 2);
      case "w":
        return String((wd + 1) % 7);
      case "W":
        return num(Math.floor((yearDay(t) + 6 - wd) / 7), 2);
      case "x":
        return strftime("%m/%d/%y", t);
      case "X":
        return strftime("%H:%M:%S", t);
      case "y":
        return num(t.year % 100, 2);
      case "Y":
        return String(t.year);
      case "z":
      case "Z":
        return "";
      case "%":
        return "%";
    }
    return whole;
  });
}
