// `npm test` and `npm pack` (prepack) need the wasm, which is committed in js/pkg: say how to get
// it back instead of failing on a missing module. Needs Node alone.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

for (const f of ['../pkg/reqparse.js', '../pkg/reqparse_bg.wasm']) {
  if (!existsSync(fileURLToPath(new URL(f, import.meta.url)))) {
    console.error(
      `missing js/pkg/${f.split('/').pop()}: it is committed (\`git checkout -- js/pkg\` restores it);` +
        ' `npm run build` rebuilds it from the Rust source (needs Rust: README.md, "Building and testing")',
    );
    process.exit(1);
  }
}
