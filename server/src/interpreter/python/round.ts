// Python's round(x, ndigits) on floats: the exact binary value rounded to ndigits decimals, ties
// to even (round(2.5) == 2, round(0.125, 2) == 0.12). toFixed rounds ties away from zero instead.
export function pyRound(x: number, ndigits: number): number {
  if (!Number.isFinite(x) || ndigits > 300) return x;
  if (ndigits < 0) {
    const f = 10 ** -ndigits;
    return roundHalfEven(x / f, 0) * f;
  }
  return roundHalfEven(x, ndigits);
}

function roundHalfEven(x: number, p: number): number {
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  const a = Math.abs(x);
  const digits = Math.min(p, 100);
  const exact = a.toFixed(Math.min(digits + 30, 100));
  const dot = exact.indexOf(".");
  const tail = exact.slice(dot + 1 + digits);
  let s: string;
  if (/^50*$/.test(tail)) {
    const head = exact.slice(0, dot + 1 + digits).replace(/\.$/, "");
    const whole = head.replace(".", "");
    const odd = Number(whole[whole.length - 1]) % 2 === 1;
    const n = (BigInt(whole) + (odd ? 1n : 0n)).toString().padStart(digits + 1, "0");
    s = digits > 0 ? `${n.slice(0, n.length - digits)}.${n.slice(n.length - digits)}` : n;
  } else {
    s = a.toFixed(digits);
  }
  return Number(sign + s);
}
