/**
 * Calls `fn` once, after the next frame is painted (a frame's callback, then a task), or after
 * `fallbackMs` in a tab that paints no frames (a hidden one). Returns a function that calls it off.
 *
 * @example
 * useEffect(() => afterNextPaint(() => setShown(true)), []);
 */
export function afterNextPaint(fn: () => void, fallbackMs = 100): () => void {
  let done = false;
  let task: ReturnType<typeof setTimeout> | undefined;
  const once = () => {
    if (done) return;
    done = true;
    fn();
  };
  const fallback = setTimeout(once, fallbackMs);
  const frame = requestAnimationFrame(() => {
    task = setTimeout(once, 0);
  });
  return () => {
    done = true;
    clearTimeout(fallback);
    if (task !== undefined) clearTimeout(task);
    cancelAnimationFrame(frame);
  };
}
