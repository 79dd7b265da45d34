import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root directory, whatever the current directory of the process. */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A path inside the repository, from its root. */
export const repositoryPath = (...segments: string[]): string => join(REPOSITORY_ROOT, ...segments);
