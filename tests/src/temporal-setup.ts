import { loadTemporal } from '../../src/lib/temporal.ts';

// The console sets its Temporal before the first secure screen draws (the secure layout's
// beforeLoad); tests render screens without that layout, so they set it first the same way.
await loadTemporal();
