export { MAX_TIMER_MS, secondsToTimerMs, timerMs } from './timerMs.js';
