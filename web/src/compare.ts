import './ui/compare.js';
