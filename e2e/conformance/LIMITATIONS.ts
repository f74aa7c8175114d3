/**
 * Cells (`player/shape/via`) that fail because of the player, not the edge or the origin, with the
 * evidence and the upstream reference. A cell listed here is reported as a player limitation in
 * docs/conformance.md instead of a failure.
 */
export const LIMITATIONS: Record<string, string> = {};
