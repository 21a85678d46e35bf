// Entry of the Review view's bundle (dist/webview/review.js), opened by "Qrels Studio: Open review".
import '../common/theme.css';
import './review.css';
import { createRoot } from 'react-dom/client';
import { hostMessenger } from '../common/hostMessenger.ts';
import { ReviewApp } from './ReviewApp.tsx';
import { ReviewController } from './reviewController.ts';

const container = document.getElementById('root');
if (!container) throw new Error('the page has no #root element');
const controller = new ReviewController(hostMessenger());
createRoot(container).render(<ReviewApp controller={controller} />);
