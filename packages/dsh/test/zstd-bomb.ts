/**
 * A zstd frame of `blocks` RLE blocks of 128 KiB each (no content size, no checksum): 4 bytes of
 * file per 128 KiB decoded, the shape of a decompression bomb.
 */
export const zstdRleBomb = (blocks: number): Buffer => {
  const blockBytes = 128 * 1024;
  // Magic, descriptor 0 (no content size, no checksum, not single segment), window 2^17.
  const header = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 7 << 3]);
  const body = Buffer.alloc(blocks * 4);
  for (let index = 0; index < blocks; index += 1) {
    const last = index === blocks - 1 ? 1 : 0;
    body.writeUIntLE((blockBytes << 3) | (1 << 1) | last, index * 4, 3);
    body[index * 4 + 3] = 0x20;
  }
  return Buffer.concat([header, body]);
};
