// Noticing that another process appended to the data file.
//
// fs.watch (inotify, FSEvents...) is immediate but not dependable everywhere:
// network and container file systems drop events, and watcher limits run out.
// fs.watchFile polls stat() and always works. Both just "poke" the store,
// which then reads whatever was appended; a poke with nothing new is cheap.
// Neither keeps the process alive.
import fs from 'node:fs';
import type { Logger } from '../model/log.js';

export interface WatchOptions {
  readonly pollIntervalMs: number;
  readonly log: Logger;
}

/** Calls `poke` when the file may have changed. Returns a function that stops watching. */
export function watchForAppends(file: string, poke: () => void, options: WatchOptions): () => void {
  const watcher = startNativeWatcher(file, poke, options.log);
  const onStat = (): void => poke();
  fs.watchFile(file, { interval: options.pollIntervalMs, persistent: false }, onStat);
  return () => {
    watcher?.close();
    fs.unwatchFile(file, onStat);
  };
}

function startNativeWatcher(file: string, poke: () => void, log: Logger): fs.FSWatcher | null {
  try {
    const watcher = fs.watch(file, { persistent: false }, () => poke());
    watcher.on('error', (error) => {
      log('warn', `file watcher stopped (${error.message}); relying on polling`);
      watcher.close();
    });
    return watcher;
  } catch (error) {
    log('warn', `cannot watch ${file} (${(error as Error).message}); relying on polling`);
    return null;
  }
}
