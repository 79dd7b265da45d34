import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router';

import { App } from '../../../web/src/app';

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

/** Renders the whole app at a path, as a browser opening that URL would. */
export function renderApp(path: string) {
  const user = userEvent.setup();
  const result = render(
    <MemoryRouter initialEntries={[path]}>
      <App />
      <LocationProbe />
    </MemoryRouter>,
  );
  return {
    ...result,
    user,
    wrapper: createWrapper(result.container),
    /** The router's current path. */
    pathname: () => result.getByTestId('location').textContent,
  };
}
