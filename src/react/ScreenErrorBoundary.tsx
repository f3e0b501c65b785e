import { Component, type ReactNode } from 'react';
import { useAppLocation } from './navigation.ts';
import { CrashPage } from './pages.tsx';

interface State {
  crashed: boolean;
  /** The path the screen threw on: the crash page stays until the person goes elsewhere. */
  at: string | undefined;
}

class Boundary extends Component<{ path: string; children: ReactNode }, State> {
  override state: State = { crashed: false, at: undefined };

  static getDerivedStateFromError(): Partial<State> {
    return { crashed: true, at: undefined };
  }

  // Runs before every render: right after a crash it notes where; on another path it lets the
  // new screen render.
  static getDerivedStateFromProps(props: { path: string }, state: State): Partial<State> | null {
    if (!state.crashed) return null;
    if (state.at === undefined) return { at: props.path };
    return state.at === props.path ? null : { crashed: false, at: undefined };
  }

  override componentDidCatch(error: unknown): void {
    // The e2e harness counts this line as a failure (test/e2e/harness.ts).
    console.error('ninefold: screen crashed', error);
  }

  override render(): ReactNode {
    return this.state.crashed ? <CrashPage /> : this.props.children;
  }
}

/**
 * A screen that throws while rendering shows a calm crash page inside the shell (what
 * react-router's `errorElement` did), until the path changes.
 */
export function ScreenErrorBoundary({ children }: { children: ReactNode }) {
  const [path] = useAppLocation();
  return <Boundary path={path}>{children}</Boundary>;
}
