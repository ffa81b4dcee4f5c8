import React from 'react';
import ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import { ErrorState } from '@portal/runtime';
import { Root } from './Root';

// single-spa lifecycles exposed to the shell as ./app.
const lifecycles = singleSpaReact({
  React,
  ReactDOMClient,
  rootComponent: Root,
  errorBoundary: (error: Error) => <ErrorState error={error} />,
});

export const { bootstrap, mount, unmount, update } = lifecycles;
