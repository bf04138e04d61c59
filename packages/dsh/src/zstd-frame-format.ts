/* The parts of the zstd frame format (RFC 8878) needed to find frame and block boundaries. */

export const zstdMagic = 0xfd2fb528;
const skippableMagicMask = 0xfffffff0;
const skippableMagic = 0x184d2a50;
/** A block's content is never larger than 128 KiB (Block_Maximum_Size). */
export const maxBlockSize = 128 * 1024;

export const isZstdMagic = (word: number): boolean => word === zstdMagic;
export const isSkippableMagic = (word: number): boolean => (word & skippableMagicMask) >>> 0 === skippableMagic;

/** True when the first bytes of a file are a zstd (or skippable) frame. */
export const startsWithZstdFrame = (bytes: Uint8Array): boolean => {
  if (bytes.length < 4) return false;
  const word =
    ((bytes[0] as number) |
      ((bytes[1] as number) << 8) |
      ((bytes[2] as number) << 16) |
      ((bytes[3] as number) << 24)) >>>
    0;
  return isZstdMagic(word) || isSkippableMagic(word);
};

export interface FrameHeaderInfo {
  /** Bytes from the magic number to the first block header. */
  readonly headerSize: number;
  readonly hasChecksum: boolean;
  /** Decompressed size when the header states it. */
  readonly contentSize: number | undefined;
}

/** Parse the frame header descriptor (the byte after the magic) and the header bytes it implies. */
export const frameHeaderSize = (descriptor: number): { size: number; reservedBitSet: boolean } => {
  const singleSegment = (descriptor >> 5) & 1;
  const dictionaryFlag = descriptor & 3;
  const contentSizeFlag = descriptor >> 6;
  const dictionaryBytes = dictionaryFlag === 3 ? 4 : dictionaryFlag;
  const contentSizeBytes = contentSizeFlag === 0 ? singleSegment : 1 << contentSizeFlag;
  return {
    size: 4 + 1 + (singleSegment ? 0 : 1) + dictionaryBytes + contentSizeBytes,
    reservedBitSet: (descriptor & 8) !== 0,
  };
};

const readLittleEndian = (bytes: Uint8Array, at: number, count: number): number => {
  let value = 0;
  for (let index = count - 1; index >= 0; index -= 1) value = value * 256 + (bytes[at + index] as number);
  return value;
};

export const parseFrameHeader = (header: Uint8Array): FrameHeaderInfo => {
  const descriptor = header[4] as number;
  const singleSegment = (descriptor >> 5) & 1;
  const dictionaryFlag = descriptor & 3;
  const contentSizeFlag = descriptor >> 6;
  const dictionaryBytes = dictionaryFlag === 3 ? 4 : dictionaryFlag;
  const contentSizeBytes = contentSizeFlag === 0 ? singleSegment : 1 << contentSizeFlag;
  const contentSizeAt = 5 + (singleSegment ? 0 : 1) + dictionaryBytes;
  const raw = contentSizeBytes === 0 ? undefined : readLittleEndian(header, contentSizeAt, contentSizeBytes);
  return {
    headerSize: contentSizeAt + contentSizeBytes,
    hasChecksum: ((descriptor >> 2) & 1) === 1,
    contentSize: raw === undefined ? undefined : contentSizeBytes === 2 ? raw + 256 : raw,
  };
};

export interface BlockHeader {
  readonly last: boolean;
  readonly type: 'raw' | 'rle' | 'compressed' | 'reserved';
  /** Bytes of block content that follow the 3-byte block header. */
  readonly contentBytes: number;
  readonly declaredSize: number;
}

export const parseBlockHeader = (b0: number, b1: number, b2: number): BlockHeader => {
  const word = b0 | (b1 << 8) | (b2 << 16);
  const typeCode = (word >> 1) & 3;
  const declaredSize = word >>> 3;
  const type = typeCode === 0 ? 'raw' : typeCode === 1 ? 'rle' : typeCode === 2 ? 'compressed' : 'reserved';
  return { last: (word & 1) === 1, type, declaredSize, contentBytes: type === 'rle' ? 1 : declaredSize };
};

/**
 * The same frame header without its content size (and without the checksum flag unless `keepChecksum`),
 * so libzstd decodes into a buffer of the size the reader chose and the reader checks the size
 * itself. A single-segment header's window was its content size; it gets a window descriptor at least
 * that large.
 */
export const headerWithoutContentSize = (header: Uint8Array, keepChecksum: boolean): Uint8Array => {
  const descriptor = header[4] as number;
  const singleSegment = ((descriptor >> 5) & 1) === 1;
  const dictionaryFlag = descriptor & 3;
  const dictionaryBytes = dictionaryFlag === 3 ? 4 : dictionaryFlag;
  const dictionaryAt = 5 + (singleSegment ? 0 : 1);
  const info = parseFrameHeader(header);
  const windowDescriptor = singleSegment ? windowDescriptorFor(info.contentSize ?? 0) : (header[5] as number);
  const checksumFlag = keepChecksum ? descriptor & 4 : 0;
  const out = new Uint8Array(6 + dictionaryBytes);
  out.set(header.subarray(0, 4), 0);
  out[4] = checksumFlag | dictionaryFlag;
  out[5] = windowDescriptor;
  out.set(header.subarray(dictionaryAt, dictionaryAt + dictionaryBytes), 6);
  return out;
};

/** The smallest power-of-two window (1 KiB at least) that holds `size` bytes, as a Window_Descriptor byte. */
const windowDescriptorFor = (size: number): number => {
  let windowLog = 10;
  while (2 ** windowLog < size) windowLog += 1;
  return (windowLog - 10) << 3;
};

/** The block header's first byte with the Last_Block bit set. */
export const markedLastBlock = (firstByte: number): number => firstByte | 1;
