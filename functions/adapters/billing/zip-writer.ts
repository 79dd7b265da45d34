import { constants, crc32, createDeflateRaw } from 'node:zlib';

/** Where the archive's bytes go, in order; each write resolves once the sink took the chunk. */
export interface ByteSink {
  write(chunk: Buffer): Promise<void>;
}

interface CentralEntry {
  readonly name: Buffer;
  readonly crc: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly offset: number;
  readonly dosTime: number;
  readonly dosDate: number;
}

/** ZIP's own limit without its 64-bit extension: refused rather than written wrong. */
const ZIP32_LIMIT = 0xffff_ffff;
/** Bit 3: sizes and CRC follow the data (streamed); bit 11: names are UTF-8. */
const FLAGS = 0x0008 | 0x0800;
const DEFLATE = 8;
const VERSION = 20;

function dosDateTime(at: Date): { dosTime: number; dosDate: number } {
  return {
    dosTime: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    dosDate: ((at.getUTCFullYear() - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

/**
 * A small streaming ZIP writer (PKWARE APPNOTE 6.3: deflated entries, sizes in a data descriptor
 * after each entry, UTF-8 names), so that an export of any size goes through in bounded memory:
 * each entry is deflated as its text is produced and handed to the sink chunk by chunk, the
 * central directory (a few dozen bytes per file) is kept for the end. An archive past 4 GiB (the
 * format's limit without ZIP64) is refused.
 */
export class ZipWriter {
  private readonly entries: CentralEntry[] = [];
  private offset = 0;
  private open = false;

  constructor(
    private readonly sink: ByteSink,
    private readonly modifiedAt: Date = new Date(),
  ) {}

  /** Writes one file whose content comes from `chunks` (strings are UTF-8). */
  async addFile(
    name: string,
    chunks: AsyncIterable<string | Buffer> | Iterable<string | Buffer>,
  ): Promise<void> {
    if (this.open) throw new Error('ZipWriter : un fichier est déjà en cours d’écriture');
    this.open = true;
    try {
      await this.writeEntry(Buffer.from(name, 'utf8'), chunks);
    } finally {
      this.open = false;
    }
  }

  private async writeEntry(
    name: Buffer,
    chunks: AsyncIterable<string | Buffer> | Iterable<string | Buffer>,
  ): Promise<void> {
    const { dosTime, dosDate } = dosDateTime(this.modifiedAt);
    const offset = this.offset;
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(FLAGS, 6);
    header.writeUInt16LE(DEFLATE, 8);
    header.writeUInt16LE(dosTime, 10);
    header.writeUInt16LE(dosDate, 12);
    // CRC and sizes (14..25) stay 0: the data descriptor carries them.
    header.writeUInt16LE(name.length, 26);
    await this.emit(Buffer.concat([header, name]));

    let crc = 0;
    let size = 0;
    let compressedSize = 0;
    const deflate = createDeflateRaw({ level: constants.Z_DEFAULT_COMPRESSION });
    const compressed: Buffer[] = [];
    deflate.on('data', (chunk: Buffer) => compressed.push(chunk));
    const drain = async () => {
      while (compressed.length > 0) {
        const chunk = compressed.shift() as Buffer;
        compressedSize += chunk.length;
        await this.emit(chunk);
      }
    };
    const feed = (data: Buffer) =>
      new Promise<void>((resolve, reject) => {
        deflate.write(data, (error) => (error ? reject(error) : resolve()));
      });
    for await (const chunk of chunks) {
      const data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      if (data.length === 0) continue;
      crc = crc32(data, crc);
      size += data.length;
      await feed(data);
      await drain();
    }
    await new Promise<void>((resolve, reject) => {
      deflate.once('end', resolve);
      deflate.once('error', reject);
      deflate.end();
    });
    await drain();
    if (size > ZIP32_LIMIT || compressedSize > ZIP32_LIMIT)
      throw new Error('ZipWriter : fichier de plus de 4 Gio, non pris en charge');

    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(compressedSize, 8);
    descriptor.writeUInt32LE(size, 12);
    await this.emit(descriptor);
    this.entries.push({ name, crc: crc >>> 0, compressedSize, size, offset, dosTime, dosDate });
  }

  /** Writes the central directory; returns the archive's size in bytes. */
  async close(): Promise<number> {
    const start = this.offset;
    for (const entry of this.entries) {
      const record = Buffer.alloc(46);
      record.writeUInt32LE(0x02014b50, 0);
      // Made by: version 2.0 on Unix, so that unzip applies the permissions below.
      record.writeUInt16LE((3 << 8) | VERSION, 4);
      record.writeUInt16LE(VERSION, 6);
      record.writeUInt16LE(FLAGS, 8);
      record.writeUInt16LE(DEFLATE, 10);
      record.writeUInt16LE(entry.dosTime, 12);
      record.writeUInt16LE(entry.dosDate, 14);
      record.writeUInt32LE(entry.crc, 16);
      record.writeUInt32LE(entry.compressedSize, 20);
      record.writeUInt32LE(entry.size, 24);
      record.writeUInt16LE(entry.name.length, 28);
      // External attributes: a regular file, rw-r--r--.
      record.writeUInt32LE((0o100644 << 16) >>> 0, 38);
      record.writeUInt32LE(entry.offset, 42);
      await this.emit(Buffer.concat([record, entry.name]));
    }
    const size = this.offset - start;
    if (this.entries.length > 0xffff || this.offset > ZIP32_LIMIT)
      throw new Error('ZipWriter : archive trop grande, non prise en charge');
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(size, 12);
    end.writeUInt32LE(start, 16);
    await this.emit(end);
    return this.offset;
  }

  private async emit(chunk: Buffer): Promise<void> {
    this.offset += chunk.length;
    await this.sink.write(chunk);
  }
}
