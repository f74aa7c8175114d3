export { nextStreamHold, initialStreamHold, type StreamHoldState, type StreamHoldSample, type StreamHoldOptions, type StreamHoldStep } from './nextStreamHold.js';
