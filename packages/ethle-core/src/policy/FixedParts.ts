import type { DecisionInput } from './HoldPolicy.js';
import type { PartHold } from './PartHold.js';

/** `holdParts: N`: every low-latency stream is held by N parts; nothing is measured. */
export class FixedParts implements PartHold {
  readonly max: number;

  constructor(n: number) {
    this.max = n;
  }

  needs(): DecisionInput {
    return 'nothing';
  }

  decide(): number {
    return this.max;
  }

  forget(): void {}
}
