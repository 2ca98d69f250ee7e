//===- NpyTest.cpp - .npy read and write ------------------------------------===//

#include "dfa/Reference/Npy.h"

#include "llvm/Support/FileSystem.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <unistd.h>

using namespace dfa::ref;

TEST_CASE("npy round trip keeps dtype, shape and bytes", "[npy]") {
  llvm::SmallString<128> path;
  REQUIRE(!llvm::sys::fs::createTemporaryFile("dfa-npy", "npy", path));
  for (DType dt : {DType::F32, DType::F16, DType::I64, DType::Bool, DType::U8}) {
    for (auto shape : {Shape{}, Shape{5}, Shape{2, 3, 4}}) {
      Tensor t(dt, shape);
      for (int64_t i = 0; i < t.numElements(); ++i)
        t.setInt(i, i % 3);
      std::string err;
      REQUIRE(writeNpy(path, t, err));
      Tensor back;
      REQUIRE(readNpy(path, back, err));
      REQUIRE(back.dtype() == dt);
      REQUIRE(back.shape() == t.shape());
      REQUIRE(back.toInts() == t.toInts());
    }
  }
  llvm::sys::fs::remove(path);
}

TEST_CASE("npy rejects truncated and foreign files", "[npy]") {
  llvm::SmallString<128> path;
  REQUIRE(!llvm::sys::fs::createTemporaryFile("dfa-npy", "npy", path));
  {
    std::ofstream f(path.c_str(), std::ios::binary);
    f << "not numpy at all";
  }
  Tensor t;
  std::string err;
  REQUIRE(!readNpy(path, t, err));
  REQUIRE(err.find("missing magic") != std::string::npos);
  Tensor big(DType::F32, {100});
  REQUIRE(writeNpy(path, big, err));
  REQUIRE(::truncate(path.c_str(), 200) == 0);
  REQUIRE(!readNpy(path, t, err));
  REQUIRE(err.find("shorter") != std::string::npos);
  llvm::sys::fs::remove(path);
}
