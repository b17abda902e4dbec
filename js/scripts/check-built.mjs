// `npm test` needs the wasm: say how to get it instead of failing on a missing module.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

for (const f of ['../pkg/reqparse.js', '../pkg/reqparse_bg.wasm']) {
  if (!existsSync(fileURLToPath(new URL(f, import.meta.url)))) {
    console.error(`missing js/pkg/${f.split('/').pop()}: run \`npm run build\` first`);
    process.exit(1);
  }
}
