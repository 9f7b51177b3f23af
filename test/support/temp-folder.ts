import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A temporary folder of a test's own, mode 700 as mkdtemp makes it (like `mktemp -d`): for data
 * directories, stores and settings files. Remove it when the test is done.
 */
export class TempFolder {
  private count = 0;

  private constructor(readonly path: string) {}

  static create(prefix: string): TempFolder {
    return new TempFolder(mkdtempSync(join(tmpdir(), `${prefix}-`)));
  }

  /** Writes a new file holding `content` (JSON unless already text) and returns its path. */
  write(content: unknown): string {
    const path = join(this.path, `settings-${++this.count}.json`);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  }

  remove(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}
