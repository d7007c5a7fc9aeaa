import { run } from '../main.ts';

/**
 * The entry of the packaged trust assistant: one executable carrying Node.js and the agent (decision
 * 032). Node.js gives a single executable the arguments as [executable, executable, ...arguments].
 */
void run(process.argv.slice(2));
