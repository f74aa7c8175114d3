export { nextStreamHold, initialStreamHold, raiseStreamHold, MAX_DWELL_SCALE, DEFAULT_DWELL_SEGMENTS, type StreamHoldState, type StreamHoldSample, type StreamHoldOptions, type StreamHoldStep } from './nextStreamHold.js';
export { chooseRadioEstimate, type RadioInput } from './chooseRadioEstimate.js';
export { shouldRedirect, type RedirectInput, type RedirectDecision } from './shouldRedirect.js';
export { PLAYER_DEFAULT_MTP_KBPS } from './PLAYER_DEFAULT_MTP_KBPS.js';
export type { RadioEstimate, RadioEvidence, RadioSkip, RadioSource } from './RadioEstimate.js';
