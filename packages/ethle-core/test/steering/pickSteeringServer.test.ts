import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pickSteeringServer } from '../../src/index.js';

const all = (): boolean => true;

describe('pickSteeringServer', () => {
  it('the next ready edge after the player’s, round the ring; never the player’s own while another is ready', () => {
    const edges = ['edge-c', 'edge-a', 'edge-b'];
    expect(pickSteeringServer({ edges, ready: all, playerPathway: 'edge-a', self: 'edge-a' })).toBe('edge-b');
    expect(pickSteeringServer({ edges, ready: all, playerPathway: 'edge-b', self: 'edge-a' })).toBe('edge-c');
    expect(pickSteeringServer({ edges, ready: all, playerPathway: 'edge-c', self: 'edge-a' })).toBe('edge-a');
    // edge-b hung: the players of edge-a ask edge-c.
    expect(pickSteeringServer({ edges, ready: (id) => id !== 'edge-b', playerPathway: 'edge-a', self: 'edge-a' })).toBe('edge-c');
    // Nobody else ready: the edge that answers now (it is alive).
    expect(pickSteeringServer({ edges, ready: (id) => id === 'edge-a', playerPathway: 'edge-a', self: 'edge-b' })).toBe('edge-b');
    // A player steered to the origin: the first ready edge.
    expect(pickSteeringServer({ edges, ready: all, playerPathway: 'origin', self: 'edge-c' })).toBe('edge-a');
  });

  it('property: the pick is ready or the answering edge, and is the player’s own edge only when no other is ready', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { minLength: 1 }),
        fc.func(fc.boolean()),
        fc.nat(),
        fc.nat(),
        (edges, readyFn, p, s) => {
          const ready = (id: string): boolean => readyFn(id);
          const playerPathway = edges[p % edges.length]!;
          const self = edges[s % edges.length]!;
          const pick = pickSteeringServer({ edges, ready, playerPathway, self });
          expect(edges).toContain(pick);
          expect(ready(pick) || pick === self).toBe(true);
          const others = edges.filter((e) => e !== playerPathway && ready(e));
          if (others.length > 0) expect(pick).not.toBe(playerPathway);
          else expect(pick).toBe(self);
        },
      ),
    );
  });
});
