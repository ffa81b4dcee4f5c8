import type { ReactNode } from 'react';

export function StatusScreen({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="status-screen" aria-labelledby="status-title">
      <div className="card">
        <h1 id="status-title">{title}</h1>
        {children}
      </div>
    </section>
  );
}
