// Small shared pieces: modal, error box, the console's shared state.
import { createContext } from 'preact';
import type { ComponentChildren } from 'preact';
import { useContext } from 'preact/hooks';
import type { Item, TableDescription } from './types';
import { errorText } from './api';

export interface Shared {
  tables: TableDescription[];
  refreshTables: () => Promise<void>;
  openItem: (table: TableDescription, item: Item | null) => void;
  // Bumped after every write the console makes, so views re-read.
  version: number;
  bump: () => void;
}

export const SharedContext = createContext<Shared>(null as unknown as Shared);
export const useShared = () => useContext(SharedContext);

export function Modal(props: { title: ComponentChildren; onClose: () => void; children: ComponentChildren; wide?: boolean; testid?: string }) {
  return (
    <div class="modal-back" onClick={(e) => e.target === e.currentTarget && props.onClose()}>
      <div class="modal" data-testid={props.testid} style={props.wide ? { width: 'min(1300px, 100%)' } : undefined}>
        <h2>
          {props.title}
          <button class="x" onClick={props.onClose} aria-label="close">
            Close
          </button>
        </h2>
        {props.children}
      </div>
    </div>
  );
}

export function ErrorBox(props: { error: unknown }) {
  if (!props.error) return null;
  return (
    <div class="error" role="alert">
      {errorText(props.error)}
    </div>
  );
}

export function Progress(props: { done: number; total: number }) {
  const pct = props.total ? Math.min(100, (100 * props.done) / props.total) : 0;
  return (
    <span class="row">
      <span class="progress">
        <div style={{ width: `${pct}%` }} />
      </span>
      <span class="muted">
        {props.done} / {props.total}
      </span>
    </span>
  );
}

export function go(hash: string) {
  location.hash = hash;
}
