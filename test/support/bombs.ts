// Decompression bombs for the extraction tests, built small: a repeated unit is deflated once
// (with a full flush, so its blocks stand alone) and the compressed block is repeated, so a
// gigabyte of output costs about a megabyte of test memory and no time to build.
import { constants, crc32, deflateRawSync } from 'node:zlib';

const flushed = (data: Buffer) => deflateRawSync(data, { finishFlush: constants.Z_FULL_FLUSH });
/** A final, empty block of fixed Huffman codes: the end of a deflate stream. */
const LAST_BLOCK = Buffer.from([0x03, 0x00]);

/** zlib data that inflates to `size` zero bytes (a multiple of 1 MiB). */
export function zlibZeros(size: number): Buffer {
  const unit = flushed(Buffer.alloc(1 << 20));
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((size % 65521) << 16) | 1) >>> 0); // Adler-32 of zeros: a = 1, b = size
  return Buffer.concat([Buffer.from([0x78, 0x9c]), ...Array<Buffer>(size >> 20).fill(unit), LAST_BLOCK, adler]);
}

/** PDF LZW codes for `size` zero bytes: each code one byte longer than the last, then a clear. */
export function lzwZeros(size: number): Buffer {
  const bytes: number[] = [];
  let held = 0;
  let bits = 0;
  const write = (code: number, width: number) => {
    held = (held << width) | code;
    for (bits += width; bits >= 8; bits -= 8) bytes.push((held >>> (bits - 8)) & 0xff);
    held &= (1 << bits) - 1;
  };
  let width = 9;
  let next = 258; // the code the decoder will give its next table entry
  let afterClear = true;
  write(256, width);
  for (let written = 0, length = 1; written < size; ) {
    // After a clear, a literal 0; then each code is the entry the decoder is about to make
    // (the previous string plus its own first byte), one zero longer each time.
    write(afterClear ? 0 : next++, width);
    written += length++;
    afterClear = false;
    if (next + 1 >= 1 << width && width < 12) width++;
    if (next >= 4094) {
      write(256, width);
      [next, width, length, afterClear] = [258, 9, 1, true];
    }
  }
  write(257, width);
  if (bits > 0) bytes.push((held << (8 - bits)) & 0xff);
  return Buffer.from(bytes);
}

/** A one-page PDF whose content stream is `data`, under `filter`, followed by a line of real text. */
export function makePdfWithStream(data: Buffer, filter: string): Buffer {
  const text = Buffer.from('BT /F1 12 Tf 72 700 Td (After the stream) Tj ET', 'latin1');
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents [5 0 R 6 0 R] >>'),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
    Buffer.concat([Buffer.from(`<< /Length ${data.length} /Filter /${filter} >>\nstream\n`), data, Buffer.from('\nendstream')]),
    Buffer.concat([Buffer.from(`<< /Length ${text.length} >>\nstream\n`), text, Buffer.from('\nendstream')]),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let offset = parts[0]!.length;
  const offsets = objects.map((object, i) => {
    const framed = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), object, Buffer.from('\nendobj\n')]);
    parts.push(framed);
    offset += framed.length;
    return offset - framed.length;
  });
  const xref = offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(Buffer.from(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`));
  return Buffer.concat(parts);
}

interface ZipPart {
  name: string;
  deflated: Buffer;
  crc: number;
  /** The uncompressed size the archive declares, whatever the data inflates to. */
  declaredSize: number;
}

function zipPart(name: string, text: string): ZipPart {
  const data = Buffer.from(text);
  return { name, deflated: deflateRawSync(data), crc: crc32(data), declaredSize: data.length };
}

function zipArchive(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(part.crc >>> 0, 14);
    local.writeUInt32LE(part.deflated.length, 18);
    local.writeUInt32LE(part.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    local.copy(entry, 8, 6, 26); // flags, method, time, date, crc and sizes, as in the local header
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, name, part.deflated);
    central.push(entry, name);
    offset += local.length + name.length + part.deflated.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const WORD_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/**
 * A DOCX whose word/document.xml really inflates to about `xmlBytes` (paragraphs of prose, a
 * multiple of 64 KiB) while its ZIP directory declares `declaredSize` bytes.
 */
export function makeDocxBomb(xmlBytes: number, declaredSize: number): Buffer {
  const head = Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${WORD_NS}"><w:body>`);
  const paragraph = '<w:p><w:r><w:t>The quarterly report repeats itself. </w:t></w:r></w:p>';
  const unit = Buffer.from(paragraph.repeat(Math.ceil(65536 / paragraph.length))).subarray(0, 65536 - (65536 % paragraph.length));
  const tail = Buffer.from('</w:body></w:document>');
  const units = Math.floor(xmlBytes / 65536);
  let crc = crc32(head);
  for (let i = 0; i < units; i++) crc = crc32(unit, crc);
  crc = crc32(tail, crc);
  const unitDeflated = flushed(unit);
  const deflated = Buffer.concat([flushed(head), ...Array<Buffer>(units).fill(unitDeflated), flushed(tail), LAST_BLOCK]);
  return zipArchive([
    zipPart(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    zipPart(
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    { name: 'word/document.xml', deflated, crc, declaredSize },
  ]);
}
