import type { DecisionInput, StreamContext } from './HoldPolicy.js';
import type { RadioEstimate } from './RadioEstimate.js';

/**
 * How many parts a policy holds of its low-latency streams (`holdParts`), chosen once with the
 * policy: FixedParts (N for every stream) or AutoParts (N per stream from the part model).
 */
export interface PartHold {
  /** The most parts a stream is held by. */
  readonly max: number;
  /** What deciding a stream's N reads (see DecisionInput). */
  needs(stream: string): DecisionInput;
  /** The stream's N for a receiver's request. */
  decide(ctx: StreamContext, radio: RadioEstimate, partSeconds: number): number;
  forget(stream: string): void;
}
