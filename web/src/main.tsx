import { render } from 'preact';

render(<h1>monotable console</h1>, document.getElementById('app')!);
