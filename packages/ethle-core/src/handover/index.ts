// Portable receiver sessions across a fleet's edges (handover): signed, bounded session tokens.
export * from './SessionClaims.js';
export * from './streamTag.js';
export * from './signSessionToken.js';
export * from './verifySessionToken.js';
export { toBase64url, fromBase64url } from './base64url.js';
