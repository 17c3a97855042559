/** A one-line progress display on stderr, redrawn at most four times a second. */
export class ProgressLine {
  private last = 0;
  private readonly started = Date.now();

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  /** Redraw with `text(elapsedSeconds)` unless the last redraw was under 250 ms ago (or `force`). */
  update(text: (elapsedSeconds: number) => string, force = false): void {
    const now = Date.now();
    if (!force && now - this.last < 250) return;
    this.last = now;
    const line = text((now - this.started) / 1000);
    this.stream.write(this.stream.isTTY ? `\r${line}\x1b[K` : `${line}\n`);
  }

  /** End the line. */
  done(): void {
    if (this.stream.isTTY) this.stream.write('\n');
  }
}

/** Bytes in MB with one decimal. */
export function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** `n` with its noun, singular for one: "1 block", "300 blocks". */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** `part` of `whole` as a whole percentage ("42%"); 100% for an empty whole. */
export function percent(part: number, whole: number): string {
  return `${whole > 0 ? Math.min(100, Math.floor((part / whole) * 100)) : 100}%`;
}
