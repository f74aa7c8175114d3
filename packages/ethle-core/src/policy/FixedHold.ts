import type { DecisionInput, HoldPolicyHooks, ReceiverDecision, StreamContext } from './HoldPolicy.js';
import { HoldPolicyBase } from './HoldPolicyBase.js';
import type { HoldPolicyConfig } from './HoldPolicyConfig.js';

/**
 * `hold: N`: every receiver of every stream is served x = N, in the group N means (hold-0 for
 * N = 0, else hold-x). Nothing is measured or chosen per request, nothing moves x: a missed
 * deadline or a slow sample is the operator's to see, not the policy's to answer.
 */
export class FixedHold extends HoldPolicyBase {
  readonly #x: number;

  constructor(config: HoldPolicyConfig & { hold: number }, hooks: HoldPolicyHooks = {}) {
    super(config, hooks);
    this.#x = config.hold;
  }

  streamHold(): number {
    return this.#x;
  }

  originHold(): number {
    return this.#x;
  }

  receiver(ctx: StreamContext, session: string, _radio: unknown, nowMs: number): ReceiverDecision {
    const a = this.groups.assign(ctx.stream, session, this.#x === 0, nowMs);
    return { kind: 'hold', x: this.#x, group: a.group, from: a.from };
  }

  servedHold(stream: string, session: string): number | undefined {
    return this.groups.stateOf(stream, session) === undefined ? undefined : this.#x;
  }

  provisional(): void {}

  requireHold(): void {}

  protected holdNeeds(): DecisionInput {
    return 'nothing';
  }

  protected steadySample(): void {}

  protected forgetHold(): void {}
}
