import { render } from 'preact';
import './style.css';
import { App } from './app';

render(<App />, document.getElementById('app')!);
