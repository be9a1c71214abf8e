/**
 * The value of a two-operand expression as a request writes it (`12 × 7`, `96 ÷ 8`, `1000 − 256`, `3 + 4`);
 * undefined for anything else or a division by zero. Plain arithmetic that a reader of the request can do: the
 * desktop calculator's checker uses it for ground truth, the reference critics to know what a finished display shows.
 */
export function evaluateExpression(expression: string): number | undefined {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*([+×x*÷/−-])\s*(-?\d+(?:\.\d+)?)\s*$/.exec(expression);
  if (!m) return undefined;
  const [a, b] = [Number(m[1]), Number(m[3])];
  switch (m[2]) {
    case '+':
      return a + b;
    case '−':
    case '-':
      return a - b;
    case '×':
    case 'x':
    case '*':
      return a * b;
    default:
      return b === 0 ? undefined : a / b;
  }
}
