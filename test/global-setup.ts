// Tests that spawn the CLI or the server run the transpiled code in dist/: build it once per test run.
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build-dist.mjs'], { stdio: 'inherit' });
}
