/** Why a StackerDB chunk could not be read as a signer message. */
export class SignerWireError extends Error {}

/**
 * Reads the consensus encoding stacks-core writes signer messages in: big-endian integers,
 * fixed-size hashes and `u32`-length-prefixed lists. A read past the end throws `SignerWireError`,
 * so a short or corrupt chunk is refused rather than read as zeros.
 */
export class WireReader {
  private offset = 0;
  private readonly view: DataView;

  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Where the next read starts. */
  get position(): number {
    return this.offset;
  }

  /** Bytes left to read. */
  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  /** Move past `length` bytes read by another decoder (a transaction). */
  skip(length: number): void {
    this.take(length);
  }

  /** One byte. */
  u8(): number {
    return this.view.getUint8(this.take(1));
  }

  /** A big-endian `u16`. */
  u16(): number {
    return this.view.getUint16(this.take(2));
  }

  /** A big-endian `u32`. */
  u32(): number {
    return this.view.getUint32(this.take(4));
  }

  /** A big-endian `u64` as a number (exact below 2^53, as a JSON reader of 1.x's numbers got it). */
  u64(): number {
    return Number(this.view.getBigUint64(this.take(8)));
  }

  /** `length` raw bytes. */
  raw(length: number): Uint8Array {
    const at = this.take(length);
    return this.bytes.subarray(at, at + length);
  }

  /** `length` bytes as `0x`-prefixed lowercase hex, as 1.x wrote hashes and signatures. */
  hex(length: number): string {
    return `0x${Buffer.from(this.raw(length)).toString('hex')}`;
  }

  /** A `u32`-length-prefixed byte string. */
  prefixedBytes(): Uint8Array {
    return this.raw(this.u32());
  }

  /** A `u32`-length-prefixed UTF-8 string. */
  prefixedText(): string {
    return utf8(this.prefixedBytes());
  }

  /** A `u32`-counted list, each item read by `item`. */
  list<T>(item: () => T): T[] {
    const count = this.u32();
    // Each item takes at least one byte: a count beyond the bytes left is corrupt, not a huge list.
    if (count > this.remaining)
      throw new SignerWireError(`a list of ${count} items in ${this.remaining} bytes`);
    return Array.from({ length: count }, item);
  }

  private take(length: number): number {
    if (length > this.remaining)
      throw new SignerWireError(
        `ends early: ${length} bytes wanted at ${this.offset}, ${this.remaining} left`,
      );
    const at = this.offset;
    this.offset += length;
    return at;
  }
}

/** Bytes as strict UTF-8; invalid text is a corrupt chunk. */
export function utf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new SignerWireError('a string is not valid UTF-8');
  }
}
