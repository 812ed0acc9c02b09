import './ui/pages/compare.js';
