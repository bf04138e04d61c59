import { type FileSignature, compareSignatures } from '../src/file-signature';

const file: FileSignature = { dev: 1, ino: 10, size: 100, mtimeMs: 1000 };

describe('comparing the signatures of a file seen twice', () => {
  it('given the same inode, size and mtime, then it is the same', () => {
    expect(compareSignatures(file, { ...file })).toBe('same');
  });
  it('given a larger size, then it grew', () => {
    expect(compareSignatures(file, { ...file, size: 120, mtimeMs: 1001 })).toBe('grown');
  });
  it('given a smaller size, then it shrank', () => {
    expect(compareSignatures(file, { ...file, size: 50, mtimeMs: 1001 })).toBe('shrunk');
  });
  it('given the same size and a new mtime, then it was touched', () => {
    expect(compareSignatures(file, { ...file, mtimeMs: 1001 })).toBe('touched');
  });
  it('given another inode or device, then it was replaced, whatever its size', () => {
    expect(compareSignatures(file, { ...file, ino: 11, size: 200 })).toBe('replaced');
    expect(compareSignatures(file, { ...file, dev: 2 })).toBe('replaced');
  });
});
