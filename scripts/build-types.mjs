// Emits the type declarations of the package's entry points (`sop-toolkit`, `sop-toolkit/contract`) into
// dist/types/ with tsc. Why a separate step: esbuild (scripts/build-dist.mjs) only strips types, which keeps
// `npm run build:sops` fast; declarations are needed only by the published package, so `npm pack` (prepack)
// runs this. The folder is emptied first, so a deleted module leaves no stale declaration behind.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
rmSync(join(root, 'dist', 'types'), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
