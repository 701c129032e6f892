// Regular expressions from users, imported documents and models, run in time linear in the text.
export { compileLinear, LinearRegExp, MAX_PROGRAM_SIZE, PatternRefused, TooMuchPatternWork, WORK_BUDGET, WorkMeter } from './linear-regexp.js';
