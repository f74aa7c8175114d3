import type { VirtualPlayerConfigInput } from './config/VirtualPlayerConfig.js';
import { playVirtual } from './playVirtual.js';
import type { VirtualRunResult, VirtualRunScenario } from './report/toRunResult.js';

/** One receiver of a group: where its connections leave from and when it joins. */
export interface ReceiverPlan {
  localAddress?: string;
  /** Join this long after the group starts, ms. */
  startOffsetMs: number;
  id?: string;
}

/** A receiver's run, or why it could not play (the others still report). */
export type ReceiverOutcome = { receiver: number; run: VirtualRunResult } | { receiver: number; error: string; code?: string };

/**
 * Plays the same live stream with several receivers in one process (many users of one cell): each
 * joins at its offset, has its own connection pool (and local address), and plays `seconds` from
 * its own join. A receiver that fails to start is reported as an error, not the group's failure:
 * at scale a refused request is a result.
 */
export async function playReceivers(
  input: VirtualPlayerConfigInput & { seconds: number; scenario?: Partial<VirtualRunScenario> },
  plans: ReceiverPlan[],
): Promise<ReceiverOutcome[]> {
  const settled = await Promise.allSettled(
    plans.map(async (p) => {
      if (p.startOffsetMs > 0) await new Promise((r) => setTimeout(r, p.startOffsetMs));
      return playVirtual({ ...input, ...(p.localAddress ? { localAddress: p.localAddress } : {}), ...(p.id ? { id: p.id } : {}) });
    }),
  );
  return settled.map((s, receiver) =>
    s.status === 'fulfilled'
      ? { receiver, run: s.value }
      : {
          receiver,
          error: (s.reason as Error)?.message ?? String(s.reason),
          ...((s.reason as { code?: string })?.code ? { code: (s.reason as { code: string }).code } : {}),
        },
  );
}
