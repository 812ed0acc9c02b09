// The training profile matches functions across GCC's names (perf) and clang's in the wasm (V8).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { functionName, rowOf } from '../../bench/profile-train.mjs';

test('the same function has one name in both builds', () => {
  const pairs = [
    ['Eigen::internal::gebp_kernel<double, double, long, Eigen::internal::blas_data_mapper<double, long, 0, 0, 1>, 4, 4, false, false>::operator()',
      'Eigen::internal::gebp_kernel<double, double, long, Eigen::internal::blas_data_mapper<double, long, 0, 0, 1>, 4, 4, false, false>::operator()(Eigen::internal::blas_data_mapper<double, long, 0, 0, 1> const&, double const*, double const*, long, long, long, double, long, long, long, long)'],
    ['attention::softmax_rows<double>', 'Eigen::Matrix<double, -1, -1, 1, -1, -1> attention::softmax_rows<double>(Eigen::Matrix<double, -1, -1, 1, -1, -1> const&, Eigen::Matrix<double, -1, -1, 1, -1, -1> const&, std::__2::vector<long, std::__2::allocator<long> >*)'],
    ['__ieee754_exp_fma', 'exp'],
    ['exp@@GLIBC_2.29', 'exp'],
    ['attention::Optimizer::step', 'attention::Optimizer::step(attention::Weights&, attention::Weights const&)'],
    ['{anonymous}::train_step', '(anonymous namespace)::train_step(int)'],
  ];
  for (const [gcc, clang] of pairs) assert.equal(functionName(gcc), functionName(clang), `${gcc} | ${clang}`);
  assert.equal(functionName('__ieee754_exp_fma'), 'exp');
  assert.equal(functionName('(anonymous namespace)::train_step(int)'), 'train_step');
  assert.notEqual(functionName('attention::forward(attention::ModelShape const&)'), functionName('attention::backward(attention::ModelShape const&)'));
});

test('a function one compiler inlines and the other keeps apart is counted with its caller on both sides', () => {
  assert.equal(rowOf('void attention::small_product_detail::rows<double, 4>(attention::small_product_detail::Operand<double>, long)'), 'multiply_small');
  assert.equal(rowOf('void attention::small_product_detail::shared_rows<double, 1>(attention::small_product_detail::Operand<double>, long)'), 'multiply_small');
  assert.equal(rowOf('attention::softmax_numerators<double>'), rowOf('attention::forward(attention::ModelShape const&)'));
  assert.equal(rowOf('(anonymous namespace)::train_step(int)'), rowOf('attention::Trainer::step(long)'));
  assert.equal(rowOf('attention::backward(attention::ModelShape const&)'), 'Trainer::step');
  assert.equal(rowOf('__ieee754_exp_fma'), 'exp');
});

test('a const member function keeps its own name', () => {
  assert.equal(functionName('attention::Trainer::metrics() const'), 'Trainer::metrics');
  assert.equal(functionName('attention::Trainer::metrics() const'), functionName('attention::Trainer::metrics()'));
});
