import type { RadioCellSpec } from './LinkSpec.js';

/**
 * The other users of a cell: each one alternates between backlogged (ON) and idle (OFF) for
 * exponentially distributed times, drawn from its own random stream. Queried at non-decreasing
 * times (ms since the link's first packet), it answers how many are ON; idle gaps cost one step
 * per state change, not per TTI. Same stream, same process: it does not depend on our traffic.
 */
export class CellLoad {
  private readonly on: boolean[] = [];
  private readonly toggleAt: number[] = [];
  private active = 0;
  private last = 0;

  constructor(
    private readonly others: RadioCellSpec['others'],
    private readonly random: () => number,
  ) {
    const { users, meanOnMs, meanOffMs } = others;
    if (!(Number.isInteger(users) && users >= 0 && meanOnMs > 0 && meanOffMs > 0)) {
      throw new RangeError(`cell others need an integer users ≥ 0 and positive mean ON/OFF ms, got ${JSON.stringify(others)}`);
    }
    // Start in the stationary distribution, so the load at t = 0 is like the load at any time.
    const pOn = meanOnMs / (meanOnMs + meanOffMs);
    for (let i = 0; i < users; i++) {
      const on = this.random() < pOn;
      this.on.push(on);
      if (on) this.active += 1;
      this.toggleAt.push(this.sojourn(on));
    }
  }

  /** Other users ON at `t` (ms, ≥ every earlier query). */
  activeAt(t: number): number {
    if (t < this.last) throw new RangeError(`CellLoad queried back in time: ${t} < ${this.last}`);
    this.last = t;
    for (let i = 0; i < this.on.length; i++) {
      while (this.toggleAt[i]! <= t) {
        const on = !this.on[i];
        this.on[i] = on;
        this.active += on ? 1 : -1;
        this.toggleAt[i] = this.toggleAt[i]! + this.sojourn(on);
      }
    }
    return this.active;
  }

  /** The long-run fraction of time at least one other user is ON: the cell load we see when idle. */
  static busyFraction(others: RadioCellSpec['others']): number {
    const pOn = others.meanOnMs / (others.meanOnMs + others.meanOffMs);
    return 1 - (1 - pOn) ** others.users;
  }

  private sojourn(on: boolean): number {
    const mean = on ? this.others.meanOnMs : this.others.meanOffMs;
    // 1 − u is in (0, 1]: never log(0). At least 1 µs so a state always lasts.
    return Math.max(1e-3, -Math.log(1 - this.random()) * mean);
  }
}
