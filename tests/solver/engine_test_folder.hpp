// The set-up the engine tests share: a temporary input folder per test (named after the test),
// inputs written into it, programs parsed and checked from text, and small engine settings.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "solver/checker.hpp"
#include "solver/engine.hpp"
#include "solver/parser.hpp"

namespace refract::solver {

class EngineTestFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("refract-" + std::string(test->test_suite_name()) + "-" + std::to_string(::getpid()) +
            "-" + test->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name) << text;
  }

  // The program of `text`, as if read from p.datalog in the folder, checked.
  Program parse(const std::string& text) const {
    Program program = parse_program_text(text, (dir_ / "p.datalog").string(), dir_);
    check_program(program);
    return program;
  }

  // Inputs and outputs in the folder, the given order, a small node table and cache.
  EngineOptions options(const std::string& order, EngineOptions base = {}) const {
    base.input_dir = dir_;
    base.output_dir = dir_;
    base.var_order = order;
    base.bdd.initial_nodes = 10000;
    base.bdd.cache_size = 10000;
    return base;
  }

  std::filesystem::path dir_;
};

}  // namespace refract::solver
