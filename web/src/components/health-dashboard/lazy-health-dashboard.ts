import { lazyComponent } from '../../layout/lazy-page';

/** The health dashboard and its charts: a chunk of their own, fetched when a page shows it. */
export const LazyHealthDashboard = lazyComponent(() =>
  import('./health-dashboard').then((module) => module.HealthDashboard),
);
