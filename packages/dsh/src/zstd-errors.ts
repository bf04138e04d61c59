import { CodedError, type FaultOf, type MessageTable, codedErrorGuard, describeFault } from '@teamlog/events';

/* The one error of the zstd decoder: a ZstdError's fault says which frame, where, and what is wrong with it. */

export type ZstdFault =
  /** A complete frame failed its structure, decompression or checksum check: the file is corrupt. */
  | { readonly code: 'CorruptZstdFrame'; readonly frameIndex: number; readonly offset: number; readonly detail: string }
  /** The stream (or one frame of it) decodes to more than the reader's limit: the file is rejected, nothing is imported. */
  | { readonly code: 'ZstdOverLimit'; readonly frameIndex: number; readonly offset: number; readonly detail: string };

const atFrame = ({ frameIndex, offset, detail }: ZstdFault): string =>
  `zstd frame ${frameIndex + 1} at byte ${offset}: ${detail}`;

const zstdMessages: MessageTable<ZstdFault> = { CorruptZstdFrame: atFrame, ZstdOverLimit: atFrame };

export class ZstdError<F extends ZstdFault = ZstdFault> extends CodedError<F> {
  override readonly name = 'ZstdError';
  constructor(fault: F) {
    super(fault, describeFault(zstdMessages)(fault));
  }
}

export type CorruptZstdFrame = ZstdError<FaultOf<ZstdFault, 'CorruptZstdFrame'>>;
export type ZstdOverLimit = ZstdError<FaultOf<ZstdFault, 'ZstdOverLimit'>>;

/** Narrow an unknown error to a ZstdError, of the given codes when any are named. */
export const isZstdError = codedErrorGuard<ZstdFault, ZstdError>(ZstdError);

export const corruptZstdFrame = (frameIndex: number, offset: number, detail: string): CorruptZstdFrame =>
  new ZstdError({ code: 'CorruptZstdFrame', frameIndex, offset, detail });

export const zstdOverLimit = (frameIndex: number, offset: number, detail: string): ZstdOverLimit =>
  new ZstdError({ code: 'ZstdOverLimit', frameIndex, offset, detail });
