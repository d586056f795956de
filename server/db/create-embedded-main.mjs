// The database-creating child's entry when the server runs from its sources: the child starts
// without the parent's TypeScript loader, so it registers tsx before loading the entry.
import { register } from 'tsx/esm/api';

register();
await import('./create-embedded-main.ts');
