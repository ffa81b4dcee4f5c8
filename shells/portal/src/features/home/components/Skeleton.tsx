// The room Home keeps for its points summary while the summary's chunk and data load: the same
// rows, of the same heights, as grey bars. In Home's first-load code and drawn ahead of time
// (app.html), so the summary replaces it without moving anything below (no layout shift).
import { Component, type ReactNode } from 'react';

const BARS = ['label', 'balance', 'tier', 'row', 'row', 'row', 'row'] as const;

export function SummarySkeleton({ title }: { title: string }) {
  return (
    <section className="card home-summary home-summary--skeleton" aria-labelledby="home-summary-title" aria-busy="true">
      <h2 id="home-summary-title" className="visually-hidden">
        {title}
      </h2>
      {BARS.map((bar, i) => (
        <span key={i} className={`home-summary__ghost home-summary__ghost--${bar}`} aria-hidden="true" />
      ))}
    </section>
  );
}

/** Keeps Home whole if the summary's chunk cannot be fetched (offline before it was cached): its room stays. */
export class SummaryBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
