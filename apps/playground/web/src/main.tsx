import { render } from 'preact';
import 'uplot/dist/uPlot.min.css';
import './styles.css';
import { App } from './app.js';

render(<App />, document.getElementById('app') as HTMLElement);
