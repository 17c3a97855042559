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
